import { ValidationFailed } from '../../common/errors';
import { CreateVoucherDto } from './voucher.dto';
import { VoucherListPipe } from './voucher-list.pipe';

describe('VoucherListPipe (batch_create body, compat §3.23)', () => {
  const pipe = new VoucherListPipe();

  const errorsOf = async (value: unknown): Promise<unknown> => {
    try {
      await pipe.transform(value);
    } catch (err) {
      if (err instanceof ValidationFailed) return err.errors;
      throw err;
    }
    throw new Error('expected a ValidationFailed');
  };

  it('returns whitelisted DTO instances for a valid list', async () => {
    const out = await pipe.transform([{ code: 'ABCDE', redeemed: 4 }, {}]);
    expect(out).toHaveLength(2);
    expect(out[0]).toBeInstanceOf(CreateVoucherDto);
    expect({ ...out[0] }).toEqual({ code: 'ABCDE' });
    expect({ ...out[1] }).toEqual({});
  });

  it.each([
    [{}, 'dict'],
    [undefined, 'dict'],
  ])('refuses %j as not a list', async (value, type) => {
    expect(await errorsOf(value)).toEqual({
      non_field_errors: [`Expected a list of items but got type "${type}".`],
    });
  });

  it('aligns entry errors with the input', async () => {
    expect(await errorsOf([{}, { code: 'abc' }, 'x', [], { max_usages: 1.5 }])).toEqual([
      {},
      { code: ['Ensure this field has at least 5 characters.'] },
      { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
      { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
      { max_usages: ['A valid integer is required.'] },
    ]);
  });
});
