declare module 'virtual:assetloom-style-catalog' {
  /** The pipeline's named palettes and the art styles and keys its generator reads, at build time (vite.config.ts). */
  const catalog: {
    palettes: { name: string; colors: string[] }[];
    artStyles: string[];
    keys: string[];
  };
  export default catalog;
}
