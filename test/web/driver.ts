// One way to drive a browser for the website's tests, whichever browser it is: Chromium through
// playwright-core (its DevTools protocol) and Firefox through puppeteer-core (WebDriver BiDi).
// The test bodies see only the Page and Locator (named as playwright names them, so a test reads
// the same as with it). This file is the one entry; the driver is in driver/, a file a concern:
//   installed.ts  which browsers there are, what each is called, where each is installed
//   launch.ts     launching one, and the one of each kind the whole run shares
//   chromium.ts   Chromium over playwright-core, its tabs kept between tests; the one Chromium
//                 launch, also for the Chromium-only tools (installability, the page benchmarks)
//   firefox.ts    Firefox over puppeteer-core
//   engine.ts     what the Page needs of either library (and the options a page opens with)
//   inPage.ts     the scripts run in the page: finding elements, the fake clock, the click check
//   page.ts       the Page and its Locators: finding, acting, waiting by polling
export { launchChromium } from './driver/chromium'
export type { ColorScheme, Cookie, PageOptions, RouteAnswer } from './driver/engine'
export { BROWSER_NAMES, BROWSER_TITLES, type BrowserName, browserPath, browsersToRun } from './driver/installed'
export { closeSharedBrowsers, launchBrowser, sharedBrowser, warmSharedBrowsers } from './driver/launch'
export { type Browser, type InputFile, Locator, Page } from './driver/page'
