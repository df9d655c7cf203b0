import { filter, ListFiltersSpec } from '../../common/http/list-filters';
import { TRANSACTION_ORDERING } from './order-transaction.queries';

/** Query parameters of `E/transactions/` and `O/transactions/` (pretix `TransactionFilter`). */
export const TRANSACTION_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    order: filter.text('Order code (case-insensitive exact match).'),
    event: filter.text('Event slug (case-insensitive exact match).'),
    datetime_since: filter.datetime('Changes at or after this time.'),
    datetime_before: filter.datetime('Changes before this time.'),
    created_since: filter.datetime('Rows written at or after this time.'),
    created_before: filter.datetime('Rows written before this time.'),
    item: filter.int('Product id.'),
    item__in: filter.ints('Product ids (comma-separated).'),
    variation: filter.int('Variation id.'),
    variation__in: filter.ints('Variation ids (comma-separated).'),
    subevent: filter.int('Date (sub-event) id.'),
    subevent__in: filter.ints('Date (sub-event) ids (comma-separated).'),
    tax_rule: filter.int('Tax rule id.'),
    tax_rule__in: filter.ints('Tax rule ids (comma-separated).'),
    tax_code: filter.text('Tax code.'),
    tax_code__in: filter.text('Tax codes (comma-separated).'),
    tax_rate: filter.decimal('Tax rate, e.g. `19.00`.'),
    tax_rate__in: filter.text('Tax rates (comma-separated), e.g. `19.00,7.00`.'),
    fee_type: filter.text('Fee type, e.g. `payment`.'),
    fee_type__in: filter.text('Fee types (comma-separated).'),
  },
  ordering: TRANSACTION_ORDERING,
};
