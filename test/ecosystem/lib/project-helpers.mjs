// Copied into every ecosystem project beside its own files.
export function baseUrl() {
  const url = process.env.ASSETLOOM_BASE_URL;
  if (!url) throw new Error('ASSETLOOM_BASE_URL is not set: run this project through test/ecosystem/run.mjs');
  return url;
}

export function uniqueName(prefix) {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

/** The 8 bytes every PNG file starts with. */
export function isPng(bytes) {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return bytes.length > 8 && sig.every((b, i) => bytes[i] === b);
}
