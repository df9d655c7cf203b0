import { PartialType, PickType } from '@nestjs/swagger';
import { IsBool, IsStr, Optional, Required } from '../common/validation/fields';

/** Body of `POST O/giftcards/acceptance/`: accept the gift cards of the issuer organizer. */
export class CreateGiftCardAcceptanceDto {
  /** Slug of the issuing organizer. */
  @Required()
  @IsStr({ blank: false, max: 50 })
  issuer!: string;

  /** Whether the acceptance is in force (default true). */
  @Optional()
  @IsBool()
  active?: boolean;

  /** Whether this organizer's medium lookup also finds the issuer's reusable media (default false). */
  @Optional()
  @IsBool()
  reusable_media?: boolean;
}

/** Body of `PATCH O/giftcards/acceptance/{issuer}/`. */
export class UpdateGiftCardAcceptanceDto extends PartialType(
  PickType(CreateGiftCardAcceptanceDto, ['active', 'reusable_media'] as const),
  { skipNullProperties: false },
) {}
