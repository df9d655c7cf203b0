import { ErrorCollector } from '../common/errors';
import { Complete } from '../common/persistence/write';
import { CreateSendmailRuleDto, RULE_STATUSES } from './sendmail-rule.dto';

/** The merged input of a write: every field filled in (defaults, stored state or the body). */
export type SendmailRuleInput = Complete<Omit<CreateSendmailRuleDto, 'include_pending'>>;

/** Defaults of the optional fields (compat §3.26); PUT resets omitted ones to these. */
export const SENDMAIL_RULE_DEFAULTS: Omit<SendmailRuleInput, 'subject' | 'template'> = {
  enabled: true,
  all_products: true,
  limit_products: [],
  restrict_to_status: ['p', 'n__valid_if_pending'],
  checked_in_status: null,
  date_is_absolute: true,
  send_date: null,
  send_offset_days: null,
  send_offset_time: null,
  offset_to_event_end: false,
  offset_is_after: false,
  send_to: 'orders',
};

/** The statuses the legacy `include_pending` stands for (pretix's data migration). */
export function statusesOfIncludePending(includePending: boolean): string[] {
  return includePending
    ? ['p', 'n__not_pending_approval_and_not_valid_if_pending', 'n__valid_if_pending']
    : ['p', 'n__valid_if_pending'];
}

/**
 * The cross-field rules of compat §3.26 on the merged input; `sent` is the body as sent (offset flags sent with an
 * absolute rule are refused even when false, as pretix does).
 * @throws ValidationFailed with `non_field_errors`
 */
export function checkSendmailRule(input: SendmailRuleInput, sent: Partial<CreateSendmailRuleDto>): void {
  const errors = new ErrorCollector();
  if (input.date_is_absolute) {
    if (sent.offset_to_event_end !== undefined || sent.offset_is_after !== undefined) {
      errors.addNonField('date_is_absolute and offset_* are mutually exclusive');
    } else if (!input.send_date) {
      errors.addNonField('send_date is required for date_is_absolute=True');
    }
  } else if (!input.send_offset_days || !input.send_offset_time) {
    errors.addNonField('send_offset_days and send_offset_time are required for date_is_absolute=False');
  }
  if (!input.all_products && input.limit_products.length === 0) {
    errors.addNonField('limit_products is required when all_products=False');
  }
  if (input.restrict_to_status.length === 0) {
    errors.addNonField('restrict_to_status needs at least one value');
  }
  for (const status of input.restrict_to_status) {
    if (!(RULE_STATUSES as readonly string[]).includes(status)) {
      errors.addNonField(`status ${status} not allowed: restrict_to_status may only include valid states`);
    }
  }
  errors.throwIfAny();
}
