/** Where bundles and their manifests are kept: node_modules/.cache/srag/. */
export declare const bundleCacheDirectory: string;
/** Where the manifest of `moduleUrl`'s bundle is kept. */
export declare function bundleManifestFile(moduleUrl: URL): string;
/** A file's SHA-256, hex. */
export declare function hashFile(path: string): string;
/** The bundle of the TypeScript module `moduleUrl`, if one was built from exactly the files it would be built from now. */
export declare function readyBundle(moduleUrl: URL): URL | undefined;
