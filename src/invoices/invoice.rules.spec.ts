import type { InvoiceLineData } from './invoice.entity';
import { countryName, negatedLines, recipientTexts } from './invoice-content.rules';
import { invoiceTotal, taxSummary } from './invoice-pdf';
import { effectiveSettings, formatNumber, generatesOn, numberPrefix } from './invoice-settings.rules';

const line = (gross: string, tax: string, rate: string, name = 'VAT'): InvoiceLineData => ({
  position: 1,
  description: 'x',
  item: 1,
  variation: null,
  subevent: null,
  fee_type: null,
  fee_internal_type: null,
  event_date_from: null,
  event_date_to: null,
  event_location: null,
  attendee_name: null,
  gross_value: gross,
  tax_value: tax,
  tax_name: name,
  tax_rate: rate,
});

describe('invoice rules', () => {
  it('generates automatically only as invoice_generate says', () => {
    expect(generatesOn('True', 'placed', false)).toBe(true);
    expect(generatesOn('True', 'paid', true)).toBe(true);
    expect(generatesOn('paid', 'placed', false)).toBe(false);
    expect(generatesOn('paid', 'placed', true)).toBe(true);
    expect(generatesOn('paid', 'paid', true)).toBe(true);
    for (const never of ['False', 'admin', 'user'] as const) {
      expect(generatesOn(never, 'placed', true)).toBe(false);
      expect(generatesOn(never, 'paid', true)).toBe(false);
    }
  });

  it('numbers: the prefix setting or the slug in capitals, five digits', () => {
    const settings = effectiveSettings({ invoice_numbers_prefix: 'INV-', bogus: 'x' });
    expect(numberPrefix(settings, 'demo')).toBe('INV-');
    expect(numberPrefix(effectiveSettings({}), 'demo')).toBe('DEMO-');
    expect(formatNumber('DEMO-', 7)).toBe('DEMO-00007');
    expect(formatNumber('DEMO-', 123456)).toBe('DEMO-123456');
    expect(settings).not.toHaveProperty('bogus');
  });

  it('sums taxes per rate and the total; a cancellation negates every line', () => {
    const lines = [
      line('119.00', '19.00', '19.00'),
      line('107.00', '7.00', '7.00', 'Reduced'),
      line('11.90', '1.90', '19.00'),
    ];
    expect(taxSummary(lines)).toEqual([
      { rate: '7.00', name: 'Reduced', net: '100.00', tax: '7.00', gross: '107.00' },
      { rate: '19.00', name: 'VAT', net: '110.00', tax: '20.90', gross: '130.90' },
    ]);
    expect(invoiceTotal(lines)).toBe('237.90');
    const negated = negatedLines(lines);
    expect(negated.map((l) => [l.gross_value, l.tax_value])).toEqual([
      ['-119.00', '-19.00'],
      ['-107.00', '-7.00'],
      ['-11.90', '-1.90'],
    ]);
    expect(invoiceTotal(negated)).toBe('-237.90');
  });

  it('builds the recipient block from the invoice address, skipping empty parts', () => {
    expect(countryName('at')).toBe('Austria');
    const texts = recipientTexts({
      is_business: false,
      company: '',
      name: 'Max',
      name_parts: {},
      street: '',
      zipcode: '1010',
      city: 'Wien',
      country: 'AT',
      state: '',
      vat_id: '',
      vat_id_validated: false,
      custom_field: null,
      internal_reference: 'PO 4',
      last_modified: '',
      transmission_type: 'email',
      transmission_info: {},
    });
    expect(texts.invoice_to).toBe('Max\n1010 Wien\nAustria');
    expect(texts.internal_reference).toBe('PO 4');
    expect(recipientTexts(null).invoice_to).toBe('');
  });
});
