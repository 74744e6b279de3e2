/** Types of page-code-in-strings.mjs, for its test. */
export declare function pageCodeInStrings(text: string): Array<{ line: number; message: string }>;
