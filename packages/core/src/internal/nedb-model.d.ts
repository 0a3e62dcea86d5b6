// NeDB's own document serializer (the line format of its data files); @seald-io/nedb ships no types for it.
declare module '@seald-io/nedb/lib/model.js' {
  export function serialize(document: unknown): string;
}
