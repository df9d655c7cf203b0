import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsInteger,
  IsIntList,
  IsJsonObject,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../common/validation/fields';

/** Scan directions (compat §3.21). */
export const CHECKIN_TYPES = ['entry', 'exit'] as const;

/** Body of `POST E/checkinlists/{list}/positions/{id or secret}/redeem/` (compat §3.21). */
export class RedeemDto {
  /** Admit even when the ticket was used, is unpaid (not canceled) or outside its validity; default false. */
  @Optional()
  @IsBool()
  force?: boolean;

  /** `entry` (default) or `exit`. */
  @Optional()
  @IsChoice(CHECKIN_TYPES)
  type?: string;

  /** Admit pending orders on lists with `include_pending`; default false. */
  @Optional()
  @IsBool()
  ignore_unpaid?: boolean;

  /** Scanner's idempotency token: the same nonce twice for a ticket on a list stores one check-in. */
  @Nullable()
  @IsStr({ max: 190 })
  nonce?: string | null;

  /** When the scan happened (ISO 8601; default now). */
  @Nullable()
  @IsDateTimeString()
  datetime?: string | null;

  /** Answers to check-in questions, `{question id: value}`. */
  @Optional()
  @IsJsonObject()
  answers?: Record<string, unknown>;

  /** Whether the scanner can ask check-in questions; default true. */
  @Optional()
  @IsBool()
  questions_supported?: boolean;

  /** Whether the scanner knows the reason `canceled` (else it gets `unpaid`); default false. */
  @Optional()
  @IsBool()
  canceled_supported?: boolean;
}

/** Body of `POST O/checkinrpc/redeem/` (compat §3.21): {@link RedeemDto} with the lists and the secret. */
export class RpcRedeemDto extends RedeemDto {
  /** Check-in list ids (at most one per event). */
  @Required()
  @IsIntList()
  lists!: number[];

  @Required()
  @IsStr({ max: 2000 })
  secret!: string;

  /** `barcode` (default). */
  @Optional()
  @IsStr({ max: 50 })
  source_type?: string;
}

/** Body of `POST O/checkinrpc/annul/` (compat §3.21, newer): annul the successful check-in made with `nonce`. */
export class RpcAnnulDto {
  /** Check-in list ids (at most one per event) the check-in may be on. */
  @Required()
  @IsIntList()
  lists!: number[];

  /** The nonce the scanner sent with the redeem. */
  @Required()
  @IsStr({ max: 190 })
  nonce!: string;

  /** Why (stored as the scan's `error_explanation`). */
  @Nullable()
  @IsStr({ max: 1000 })
  error_explanation?: string | null;
}

/** Reason codes `failed_checkins/` accepts (spec "Check-in lists"). */
export const FAILED_REASONS = [
  'canceled',
  'invalid',
  'unpaid',
  'product',
  'rules',
  'revoked',
  'incomplete',
  'already_redeemed',
  'ambiguous',
  'blocked',
  'invalid_time',
  'error',
] as const;

/** Body of `POST E/checkinlists/{list}/failed_checkins/` (compat §3.20). */
export class FailedCheckinDto {
  @Required()
  @IsStr({ max: 2000 })
  raw_barcode!: string;

  @Required()
  @IsChoice(FAILED_REASONS)
  error_reason!: string;

  /** Default `barcode`. */
  @Optional()
  @IsStr({ max: 50 })
  raw_source_type?: string;

  @Nullable()
  @IsDateTimeString()
  datetime?: string | null;

  /** `entry` (default) or `exit`. */
  @Optional()
  @IsChoice(CHECKIN_TYPES)
  type?: string;

  /** Order position id, if the scanner knew the ticket. */
  @Nullable()
  @IsInteger()
  position?: number | null;

  @Nullable()
  @IsInteger()
  raw_item?: number | null;

  @Nullable()
  @IsInteger()
  raw_variation?: number | null;

  @Nullable()
  @IsInteger()
  raw_subevent?: number | null;

  @Nullable()
  @IsStr({ max: 190 })
  nonce?: string | null;
}
