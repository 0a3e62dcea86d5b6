/** A media type as stored and served: `type/subtype` with optional parameters, no control characters. */
const CONTENT_TYPE_PATTERN =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:[ \t]*;[ \t]*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[ !#-[\]-~]*"))*$/;

export function isValidContentType(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && CONTENT_TYPE_PATTERN.test(value);
}

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  json: 'application/json',
  tres: 'text/plain; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** The content type implied by a key's extension (used when no stored content type is usable). */
export function contentTypeFromKey(key: string): string {
  const dot = key.lastIndexOf('.');
  const slash = key.lastIndexOf('/');
  if (dot <= slash + 1) return 'application/octet-stream';
  return BY_EXTENSION[key.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}
