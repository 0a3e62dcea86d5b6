import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    mongodb: 'src/mongodb.ts',
    'review/index': 'src/review/index.ts',
    'review/mongodb': 'src/review/mongodb.ts',
  },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['mongodb', '@seald-io/nedb', 'ajv', 'ajv-formats', '@assetloom/openapi'],
});
