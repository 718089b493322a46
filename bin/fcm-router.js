#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `npx fcm-router` works straight after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../router/cli.ts');
