import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/worker-main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
