import { assetApiDocument } from '@assetloom/openapi';
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

  it('fill a generate request the same way in the validator and in the service', () => {
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
        expect(validated.params, `${assetType} ${JSON.stringify(params)}`).toEqual(
          normalizeParams(assetType, params as never),
        );
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
