import type { ModuleDef } from '../types.ts';
import { NOTIFICATION_HOOKS } from './hooks.ts';
import { NOTIFICATION_HANDLERS } from './routes.ts';
import { deliverSuggestionAnswers } from './suggestions.ts';
import { notifyMoved } from '../../notify/queue.ts';

/** Notifications: templates checked against their type, a notification's deliveries queued (a workflow move's too: the `workflow.moved` listener), one's own in-app notifications, suggestions' answers delivered (metadata/modules/notifications.json, docs/notifications.md). */
export const notificationsModule: ModuleDef = {
  name: 'notifications',
  hooks: NOTIFICATION_HOOKS,
  handlers: NOTIFICATION_HANDLERS,
  on: { 'workflow.moved': notifyMoved },
  // a suggestion's answer is delivered to its sender (./suggestions.ts)
  load: () => {
    deliverSuggestionAnswers();
  },
};
