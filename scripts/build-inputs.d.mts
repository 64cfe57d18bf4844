export declare const SOURCE_DIRS: readonly string[]
export interface BuildRecord {
  inputs: string
  checked: boolean
}
export declare function inputsDigest(root: string): string
export declare function writeBuildRecord(outDir: string, record: BuildRecord): void
export declare function isBuildCurrent(root: string, outDir: string, options: { checked: boolean }): boolean
