#!/usr/bin/env node
// The `ecofond` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('./index.ts');
