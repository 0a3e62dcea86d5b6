import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // the package tsconfig is a composite project (for tsc -b); the declaration build is a plain one
  dts: { compilerOptions: { composite: false, incremental: false } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
});
