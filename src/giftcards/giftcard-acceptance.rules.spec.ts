import { mayBook, visibleTransactionDetails, visibleTransactionRefs } from './giftcards.rules';

describe('gift card acceptance rules', () => {
  it('lets the issuer book anything and an acceptor only debit', () => {
    expect(['10.00', '0.00', '-1.00'].map((v) => mayBook(true, v))).toEqual([true, true, true]);
    expect(['10.00', '0.00', '-0.00', '-0.01'].map((v) => mayBook(false, v))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it("hides text and info of other organizers' transactions from an acceptor", () => {
    const tx = { acceptorId: 2, text: 'x', info: { a: 1 } };
    expect(visibleTransactionDetails(tx, 1, 1)).toEqual({ text: 'x', info: { a: 1 } }); // the issuer
    expect(visibleTransactionDetails(tx, 2, 1)).toEqual({ text: 'x', info: { a: 1 } }); // the booking acceptor
    expect(visibleTransactionDetails(tx, 3, 1)).toEqual({ text: null, info: null }); // another acceptor
    const refs = { event: 'sample', order: 'ABC12' };
    expect(visibleTransactionRefs(refs, 2, 1, 1)).toEqual(refs); // the issuer
    expect(visibleTransactionRefs(refs, 2, 2, 1)).toEqual(refs); // the booking acceptor
    expect(visibleTransactionRefs(refs, 2, 3, 1)).toEqual({ event: null, order: null }); // another acceptor
  });
});
