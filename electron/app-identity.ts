/** The app's identity; `appId` in build/electron-builder.yml must be the same string. */
export const APP_ID = 'dev.fcm-router.desktop';
export const PRODUCT_NAME = 'fcm-router';
/**
 * The desktop app's executable (`executableName` in build/electron-builder.yml), named apart from the
 * `fcm-router` CLI so that the .deb's /usr/bin link does not shadow it. Installed icons carry this name too.
 */
export const GUI_EXECUTABLE_NAME = 'fcm-router-desktop';
