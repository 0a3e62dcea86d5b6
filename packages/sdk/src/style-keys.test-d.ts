// The known style keys in the types (issue #32): `StyleKey` is the contract's list, and every style
// map a request sends (project `style`, `kvPairs`, `taskStyle`) declares those keys — so editors
// offer them — while any other string key stays allowed. test/style-completions.test.ts asks the
// TypeScript language service for the completions themselves.
import { describe, expectTypeOf, test } from 'vitest';
import type { KNOWN_STYLE_KEYS } from '../test/style-keys.js';
import {
  type ApiResult,
  createAssetClient,
  type FieldError,
  type GenerateRequest,
  type NamedPalette,
  type StyleCatalog,
  type StyleKey,
  type StyleKeyInfo,
  type StyleMap,
} from './index.js';
import type { AssetApiPaths } from './types.js';

const api = createAssetClient({ baseUrl: 'http://127.0.0.1:1' });

/** True when `K` is a declared (optional) property of `T`, not one only an index signature gives. */
type Declares<T, K extends string> = Record<never, never> extends Pick<T, K & keyof T> ? true : false;

type Json<P extends keyof AssetApiPaths, M extends keyof AssetApiPaths[P]> = AssetApiPaths[P][M] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

describe('StyleKey and StyleMap', () => {
  test('StyleKey lists the keys the generator reads', () => {
    expectTypeOf<StyleKey>().toEqualTypeOf<(typeof KNOWN_STYLE_KEYS)[number]>();
  });

  test('StyleMap declares every known key and still takes any other string key', () => {
    expectTypeOf<Declares<StyleMap, 'palette'>>().toEqualTypeOf<true>();
    expectTypeOf<Declares<StyleMap, 'biome'>>().toEqualTypeOf<true>();
    // the contract's plain map does not: that is what gave no completions
    expectTypeOf<Declares<{ [key: string]: string }, 'palette'>>().toEqualTypeOf<false>();
    const style: StyleMap = { palette: 'pico8', artStyle: 'pixel', weather: 'rain' };
    void style;
    // @ts-expect-error values are strings, known keys included
    const wrong: StyleMap = { palette: 16 };
    // @ts-expect-error values are strings, other keys too
    const wrongOther: StyleMap = { weather: true };
    void wrong;
    void wrongOther;
  });
});

describe('the style maps of request bodies', () => {
  test('create project, replace style and generate declare the known keys', () => {
    type CreateStyle = NonNullable<Json<'/api/v1/projects', 'post'>['style']>;
    type ReplaceStyle = Json<'/api/v1/projects/{projectId}/style', 'put'>['kvPairs'];
    type TaskStyle = NonNullable<GenerateRequest['taskStyle']>;
    expectTypeOf<Declares<CreateStyle, 'palette'>>().toEqualTypeOf<true>();
    expectTypeOf<Declares<ReplaceStyle, 'lighting'>>().toEqualTypeOf<true>();
    expectTypeOf<Declares<TaskStyle, 'mood'>>().toEqualTypeOf<true>();
    expectTypeOf<CreateStyle>().toEqualTypeOf<StyleMap>();
    expectTypeOf<ReplaceStyle>().toEqualTypeOf<StyleMap>();
    expectTypeOf<TaskStyle>().toEqualTypeOf<StyleMap>();
    // taskStyle stays nullable, as the contract has it
    expectTypeOf<null>().toMatchTypeOf<GenerateRequest['taskStyle']>();
  });

  test('known and unknown keys typecheck in calls; non-string values do not', async () => {
    await api.POST('/api/v1/projects', {
      body: { name: 'Forest', style: { palette: 'sweetie16', lineWeight: '1', studio: 'ours' } },
    });
    await api.PUT('/api/v1/projects/{projectId}/style', {
      params: { path: { projectId: 'p1' } },
      body: { kvPairs: { tileable: 'true', anything: 'goes' } },
    });
    await api.generate({
      projectId: 'p1',
      prompt: 'a knight',
      assetType: 'sprite',
      taskStyle: { mood: 'grim', camera: 'low' },
    });
    await api.generate({ projectId: 'p1', prompt: 'a knight', assetType: 'sprite', taskStyle: null });
    // @ts-expect-error a style value is a string
    await api.POST('/api/v1/projects', { body: { name: 'Forest', style: { palette: 16 } } });
    await api.generate({
      projectId: 'p1',
      prompt: 'a knight',
      assetType: 'sprite',
      // @ts-expect-error so is an unknown key's
      taskStyle: { camera: 2 },
    });
  });

  test('the rest of the paths keep their generated types (responses untouched)', async () => {
    const stored = await api.GET('/api/v1/projects/{projectId}/style', {
      params: { path: { projectId: 'p1' } },
    });
    if (stored.data) expectTypeOf(stored.data.kvPairs).toEqualTypeOf<{ [key: string]: string }>();
    // @ts-expect-error a project name is still required
    await api.POST('/api/v1/projects', { body: { style: { palette: 'pico8' } } });
  });
});

describe('getStyleCatalog', () => {
  test('answers the typed catalogue and takes the call options', async () => {
    const controller = new AbortController();
    const result = await api.getStyleCatalog({ language: 'en', signal: controller.signal, timeoutMs: 5000 });
    expectTypeOf(result).toEqualTypeOf<ApiResult<StyleCatalog>>();
    if (result.data) {
      expectTypeOf(result.data.palettes).toEqualTypeOf<NamedPalette[]>();
      expectTypeOf(result.data.keys).toEqualTypeOf<StyleKeyInfo[]>();
      expectTypeOf(result.data.keys[0]!.name).toEqualTypeOf<StyleKey>();
      expectTypeOf(result.data.keys[0]!.values).toEqualTypeOf<string[] | null>();
    }
    const strict = createAssetClient({ baseUrl: 'http://127.0.0.1:1', throwOnError: true });
    expectTypeOf(await strict.getStyleCatalog()).toEqualTypeOf<StyleCatalog>();
  });

  test('a refused style value carries allowed', () => {
    expectTypeOf<FieldError['allowed']>().toEqualTypeOf<
      readonly (string | number | boolean | null)[] | undefined
    >();
  });
});
