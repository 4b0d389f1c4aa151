// The web app manifest, which lets a browser install the site as an app: its names, where it
// starts, its window, its colours and its icons (drawn by scripts/icons.ts). scripts/buildWeb.ts
// writes it, with the icons' hashed asset paths, to /manifest.webmanifest; the web module serves
// it there, at one address that never changes (an installed app finds its updates through it).

/**
 * The header's colour (the CSS `--surface`), light and dark, for the browser's toolbar and an
 * installed app's title bar. index.html names both in its `theme-color` metas, by colour scheme;
 * the manifest holds one, the light one.
 */
export const THEME_COLORS = { light: '#ffffff', dark: '#1e1c17' } as const

/** The page's ground (the CSS `--bg`, light): the splash screen while the app starts. */
export const BACKGROUND_COLOR = '#f6f4ef'

/** The icons of src/web/icons/ the manifest lists: the sizes browsers ask for, and one to cut. */
export const MANIFEST_ICONS = [
  { file: 'icon-192.png', sizes: '192x192', purpose: 'any' },
  { file: 'icon-512.png', sizes: '512x512', purpose: 'any' },
  { file: 'icon-maskable-512.png', sizes: '512x512', purpose: 'maskable' },
] as const

export type IconFile = (typeof MANIFEST_ICONS)[number]['file']

/** The manifest, given where each icon is served (its hashed asset path). */
export function webManifest(iconPath: (file: IconFile) => string) {
  return {
    // The app's identity: the start page, whatever the manifest's address or contents become.
    id: '/',
    name: 'Quest Tracker',
    short_name: 'Quests',
    description: "Your Dungeons & Dragons Online characters' quests, favor, XP, builds and routes.",
    lang: 'en',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: BACKGROUND_COLOR,
    theme_color: THEME_COLORS.light,
    icons: MANIFEST_ICONS.map(({ file, sizes, purpose }) => ({
      src: iconPath(file),
      sizes,
      type: 'image/png',
      purpose,
    })),
  }
}
