export declare const ISOLATED_DIR: "isolated/";
export declare function isIsolatedPath(urlPath: string, base?: string): boolean;
export declare function isolationHeaders(urlPath: string, page: boolean, base?: string): Record<string, string>;
