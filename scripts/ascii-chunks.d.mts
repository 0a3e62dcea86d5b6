// Types of scripts/ascii-chunks.mjs for the TypeScript files that import it (tsup configs, its test).
export function asciiOnly(code: string, where?: string): string;
export function asciiChunks(): {
  name: string;
  renderChunk(code: string, info: { path: string }): { code: string } | undefined;
};
