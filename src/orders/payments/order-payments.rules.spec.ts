import { firstPayment, openAmount, paidCredit } from './order-payments.rules';

describe('order payment rules', () => {
  const now = new Date('2030-01-01T10:00:00Z');
  const req = (over: Partial<Parameters<typeof firstPayment>[0]> = {}) => ({
    requestedPaid: false,
    free: false,
    provider: null,
    paymentDate: null,
    paymentInfo: undefined,
    ...over,
  });

  it('gives a pending order without provider no payment, with one a created payment', () => {
    expect(firstPayment(req(), now)).toBeNull();
    expect(firstPayment(req({ provider: 'banktransfer', paymentInfo: { iban: 'x' } }), now)).toEqual({
      state: 'created',
      provider: 'banktransfer',
      paymentDate: null,
      info: { iban: 'x' },
    });
  });

  it('confirms a paid order: manual (or the named provider), dated as sent or now', () => {
    expect(firstPayment(req({ requestedPaid: true }), now)).toEqual({
      state: 'confirmed',
      provider: 'manual',
      paymentDate: now,
      info: {},
    });
    const date = new Date('2029-12-24T00:00:00Z');
    expect(
      firstPayment(req({ requestedPaid: true, provider: 'stripe', paymentDate: date }), now),
    ).toMatchObject({
      provider: 'stripe',
      paymentDate: date,
    });
  });

  it('settles a free order with a free payment whatever was asked, dropping the info of a pending one', () => {
    expect(firstPayment(req({ free: true, paymentInfo: { a: 1 } }), now)).toEqual({
      state: 'confirmed',
      provider: 'free',
      paymentDate: now,
      info: {},
    });
    expect(firstPayment(req({ free: true, requestedPaid: true }), now)).toMatchObject({ provider: 'free' });
  });

  it('counts only confirmed payments as credit; the open amount never goes below zero', () => {
    const payments = [
      { state: 'confirmed', amount: '10.00' },
      { state: 'created', amount: '5.00' },
      { state: 'canceled', amount: '7.00' },
    ];
    expect(paidCredit(payments).toFixed(2)).toBe('10.00');
    expect(openAmount('12.50', payments).toFixed(2)).toBe('2.50');
    expect(openAmount('8.00', payments).toFixed(2)).toBe('0.00');
  });
});
