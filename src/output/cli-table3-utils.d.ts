// cli-table3's own width helpers (string-width based), so our fitting measures cells exactly as the
// table lays them out. Internal to cli-table3 0.6.x, which is pinned in package.json.
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
  export function truncate(text: string, width: number, truncateChar?: string): string;
}
