import { assetApiDocument } from '@assetloom/openapi';
import { PARAM_LIMITS, PARAM_DEFAULTS as PIPELINE_PARAM_DEFAULTS } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { normalizeParams, PARAM_DEFAULTS } from './params.js';
import { createRequestValidator } from './validation.js';

type Schema = { default?: unknown; properties?: Record<string, Schema> };
const schemas = assetApiDocument.components.schemas as Record<string, Schema>;

describe('parameter defaults', () => {
  it('are the ones the contract states', () => {
    expect(PARAM_DEFAULTS).toEqual({
      resolution: schemas.Resolution?.default,
      directions: schemas.Frames?.properties?.directions?.default,
      framesPerDirection: schemas.Frames?.properties?.framesPerDirection?.default,
      format: schemas.OutputFormat?.default,
    });
  });

  it('are the ones the pipeline validates and defaults with (its generated copy of the contract)', () => {
    expect(PIPELINE_PARAM_DEFAULTS).toEqual(PARAM_DEFAULTS);
    const res = schemas.Resolution as { minimum?: number; maximum?: number };
    expect(PARAM_LIMITS.resolution).toEqual({ min: res.minimum, max: res.maximum });
  });

  it('are filled in once, by the service: a validated body normalizes as the raw one does', () => {
    const validator = createRequestValidator();
    for (const assetType of ['sprite', 'animation', 'background', 'ui'] as const) {
      for (const params of [undefined, {}, { frames: { directions: 8 } }, { resolution: 32, seed: 7 }]) {
        const body = {
          projectId: 'p'.repeat(22),
          prompt: 'a knight',
          assetType,
          ...(params ? { params } : {}),
        };
        const validated = validator.validate('generate', { body }).body as { params: unknown };
        expect(
          normalizeParams(assetType, validated.params as never),
          `${assetType} ${JSON.stringify(params)}`,
        ).toEqual(normalizeParams(assetType, params as never));
      }
    }
    expect(normalizeParams('sprite', undefined)).toEqual({
      resolution: PARAM_DEFAULTS.resolution,
      format: PARAM_DEFAULTS.format,
      frames: {
        directions: PARAM_DEFAULTS.directions,
        framesPerDirection: PARAM_DEFAULTS.framesPerDirection,
      },
    });
  });
});
