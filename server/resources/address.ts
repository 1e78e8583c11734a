// Street, postal code, city, country: the address block of organisations, companies and centres.
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { text } from '../hydra/fields';
import { COUNTRY, optionalText } from './constraints';

export const ADDRESS_FIELDS = ['street', 'postalCode', 'city', 'country'];

export const addressFields = (table: { street: AnyPgColumn; postalCode: AnyPgColumn; city: AnyPgColumn; country: AnyPgColumn }) => ({
  street: text(table.street, { label: 'Adresse', constraints: optionalText() }),
  postalCode: text(table.postalCode, { label: 'Code postal', constraints: optionalText(20) }),
  city: text(table.city, { label: 'Ville', constraints: optionalText() }),
  country: text(table.country, { required: true, label: 'Pays', constraints: COUNTRY }),
});
