/**
 * A generated list as UTF-8 bytes read in place (issue #38, decision 0079): one SharedArrayBuffer that
 * every pipeline thread is handed, instead of the list as a string in each thread's heap. Slices are
 * decoded when a reader needs them. One source (index.js) for the drawings, the pipeline and the
 * generator; each build carries its own copy (decision 0090).
 */

/** The text as UTF-8 bytes, in a SharedArrayBuffer where the runtime has one (else a plain buffer). */
export declare function sharedUtf8(text: string): Uint8Array;

/**
 * bytes[from, to) as a string of its own (never a slice that keeps a larger string alive). The bytes
 * are UTF-8 that TextEncoder wrote.
 */
export declare function utf8Slice(bytes: Uint8Array, from: number, to: number): string;

/** The index of the first `byte` in bytes[from, to), or -1. */
export declare function indexOfByte(bytes: Uint8Array, byte: number, from?: number, to?: number): number;
