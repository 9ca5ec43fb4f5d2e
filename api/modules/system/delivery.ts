import { ApiError } from '../../kernel/errors.ts';
import { deliverableChannels } from '../../notify/transports.ts';

/**
 * Refuses, before a code is promised, what this installation cannot deliver (422, in the caller's
 * language): the given method when it is known (the caller's own contact, or the address the
 * visitor typed), else both. The answer depends on the installation alone, never on an account.
 */
export function assertDeliverable(channel?: 'email' | 'sms'): void {
  const can = deliverableChannels();
  if (channel && !can[channel]) throw new ApiError('unprocessable', `errors.${channel}_undeliverable`);
  if (!channel && !can.email && !can.sms) throw new ApiError('unprocessable', 'errors.codes_undeliverable');
}
