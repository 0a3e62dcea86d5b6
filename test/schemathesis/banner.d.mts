/** Restates a pytest-style `==== text ====` banner of Schemathesis as `[schemathesis <name>] text`. */
export declare function restateBanner(line: string, name: string): string;
