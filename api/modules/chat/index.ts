import type { ModuleDef } from '../types.ts';
import { CHAT_HOOKS } from './hooks.ts';
import { CHAT_HANDLERS } from './routes.ts';

/** Chat with an operator (metadata/modules/chat.json, docs/chat.md); the WebSocket is hub.ts, attached to the HTTP server. */
export const chatModule: ModuleDef = { name: 'chat', hooks: CHAT_HOOKS, handlers: CHAT_HANDLERS };
