/** turndown-plugin-gfm ships no types: its one export used here is the plugin bundle. */
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const gfm: TurndownService.Plugin;
}
