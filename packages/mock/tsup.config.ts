import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['msw', '@assetloom/core', '@assetloom/pipeline', '@assetloom/openapi'],
});
