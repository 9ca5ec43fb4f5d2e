import { describe, expect, it } from 'vitest';
import { decreeNumberIn, offencePaymentStatus } from './offence-payments.ts';

describe('offence payment status', () => {
  it('is unpaid, partly paid or paid from the confirmed sum, to the tiyin', () => {
    expect(offencePaymentStatus(164_800_000n, 0n)).toBe('unpaid');
    expect(offencePaymentStatus(164_800_000n, 1n)).toBe('partly_paid');
    expect(offencePaymentStatus(164_800_000n, 164_799_999n)).toBe('partly_paid');
    expect(offencePaymentStatus(164_800_000n, 164_800_000n)).toBe('paid');
    expect(offencePaymentStatus(164_800_000n, 200_000_000n)).toBe('paid');
    expect(offencePaymentStatus(null, 0n)).toBe('unpaid');
    expect(offencePaymentStatus(null, 5n)).toBe('paid');
  });
});

describe('decree number in a purpose', () => {
  it('reads the number after №, N, # or the word for a decree', () => {
    expect(decreeNumberIn('Jarima, qaror № AB-123/24, Aliyev')).toBe('AB-123/24');
    expect(decreeNumberIn('Штраф по постановлению №0045612')).toBe('0045612');
    expect(decreeNumberIn('постановление 0045612 от 01.02.2025')).toBe('0045612');
    expect(decreeNumberIn('Ekologik jarima qarori 77-15')).toBe('77-15');
    expect(decreeNumberIn('Jarima N 5512')).toBe('5512');
    expect(decreeNumberIn('#QR-9')).toBe('QR-9');
  });
  it('is null when the purpose names none', () => {
    expect(decreeNumberIn('Ekologik jarima')).toBeNull();
    expect(decreeNumberIn('')).toBeNull();
    expect(decreeNumberIn(null)).toBeNull();
  });
});
