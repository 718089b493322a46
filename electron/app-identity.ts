/** The app's identity; `appId` in build/electron-builder.yml must be the same string. */
export const APP_ID = 'dev.fcm-router.desktop';
export const PRODUCT_NAME = 'fcm-router';
