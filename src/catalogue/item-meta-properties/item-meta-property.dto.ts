import { ApiProperty, PartialType } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { IsBool, IsStr, Optional, Required, rule } from '../../common/validation/fields';

/** pretix's rule for item meta property names (`ItemMetaProperty.name` validator). */
export const PROPERTY_NAME = /^[a-zA-Z0-9_]+$/;

/**
 * `allowed_values` (pretix's MultiLineStringField): null, or a non-empty list of strings; anything else answers
 * `Invalid data type.`. Required on create and PUT (pretix declares it without a default).
 */
function AllowedValues(): PropertyDecorator {
  return applyDecorators(
    rule('allowedValues', (v) => {
      if (v === undefined) return 'This field is required.';
      if (v === null) return null;
      return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')
        ? null
        : 'Invalid data type.';
    }),
    ApiProperty({ type: 'array', items: { type: 'string' }, nullable: true, required: true, minItems: 1 }),
  );
}

/** Body of `POST E/item_meta_properties/` and `PUT E/item_meta_properties/{id}/`. */
export class CreateItemMetaPropertyDto {
  /** Letters, digits and underscores; at most 50 characters; unique within the event. */
  @Required()
  @IsStr({
    blank: false,
    max: 50,
    pattern: PROPERTY_NAME,
    patternMessage: 'The property name may only contain letters, numbers and underscores.',
  })
  name!: string;

  /** Default value (default `""`). */
  @Optional()
  @IsStr()
  default?: string;

  /** "Required for products" (default false; not enforced on item writes, as in pretix's API). */
  @Optional()
  @IsBool()
  required?: boolean;

  /** The values allowed (a non-empty list), or null for any value. Required on create and PUT (pretix). */
  @AllowedValues()
  allowed_values!: string[] | null;
}

/** Body of `PATCH E/item_meta_properties/{id}/`: every field optional. */
export class UpdateItemMetaPropertyDto extends PartialType(CreateItemMetaPropertyDto, {
  skipNullProperties: false,
}) {}
