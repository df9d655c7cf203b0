import type { InvoiceAddress } from '../entities/invoice-address.entity';
import type { InvoiceAddressInputDto } from './invoice-address.dto';
import { transmissionInfoValues } from './invoice-transmission.rules';
import type { Values } from '../writing/order-writer';
import { attendeeNameParts } from '../writing/sales.rules';

/**
 * Pure rules of an order's invoice address as order creation takes it (compat §4.4 "Order creation",
 * `invoice_address`): the check of the name fields and the stored form. Re-exported by `order-create.rules.ts`.
 */

/** Whether an invoice address sends both `name` and non-empty `name_parts`. */
export function invoiceNameSentTwice(address: InvoiceAddressInputDto | null | undefined): boolean {
  return !!address && !!address.name && !!address.name_parts && Object.keys(address.name_parts).length > 0;
}

/** The stored form of a sent invoice address (`name` becomes `{"_legacy": name}`; country upper-cased). */
export function invoiceAddressValues(
  input: InvoiceAddressInputDto,
  now: Date,
): Omit<Values<InvoiceAddress>, 'orderId'> {
  return {
    isBusiness: input.is_business ?? false,
    company: input.company ?? '',
    nameParts: attendeeNameParts(input.name, input.name_parts),
    street: input.street ?? '',
    zipcode: input.zipcode ?? '',
    city: input.city ?? '',
    country: (input.country ?? '').toUpperCase(),
    state: input.state ?? '',
    vatId: input.vat_id ?? '',
    vatIdValidated: input.vat_id_validated ?? false,
    customField: input.custom_field ?? null,
    internalReference: input.internal_reference ?? '',
    beneficiary: '',
    transmissionType: input.transmission_type || 'email',
    transmissionInfo: transmissionInfoValues(input.transmission_info),
    lastModified: now,
  };
}
