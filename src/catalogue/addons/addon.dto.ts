import { PartialType } from '@nestjs/swagger';
import { IsBool, IsInteger, Optional, Required } from '../../common/validation/fields';

/**
 * Body of `POST E/items/{item}/addons/`, `PUT E/items/{item}/addon(s)/{id}/` and of each entry of an item's inline
 * `addons` on create (spec "Item add-on"; compat §3.12). Negative counts pass the type check and are refused by
 * the service, with the message on the field (endpoints) or in the flat `addons` list (inline, as pretix).
 */
export class CreateAddonDto {
  /** Id of a category of the same event; its products are offered as add-ons. */
  @Required()
  @IsInteger()
  addon_category!: number;

  /** Minimum number of add-ons chosen (default 0). */
  @Optional()
  @IsInteger()
  min_count?: number;

  /** Maximum number of add-ons chosen (default 1); not lower than `min_count`. */
  @Optional()
  @IsInteger()
  max_count?: number;

  @Optional()
  @IsInteger({ min: 0 })
  position?: number;

  /** The same product may be added several times. */
  @Optional()
  @IsBool()
  multi_allowed?: boolean;

  /** Add-ons are included in the base product's price (free). */
  @Optional()
  @IsBool()
  price_included?: boolean;
}

/** Body of `PATCH E/items/{item}/addon(s)/{id}/`: every field optional, none nullable. */
export class UpdateAddonDto extends PartialType(CreateAddonDto, { skipNullProperties: false }) {}
