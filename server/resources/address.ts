// Street, postal code, city, country: the address block of organisations, companies and centres.
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { text } from '../hydra/fields';

export const ADDRESS_FIELDS = ['street', 'postalCode', 'city', 'country'];

export const addressFields = (table: { street: AnyPgColumn; postalCode: AnyPgColumn; city: AnyPgColumn; country: AnyPgColumn }) => ({
  street: text(table.street, { label: 'Adresse' }),
  postalCode: text(table.postalCode, { label: 'Code postal' }),
  city: text(table.city, { label: 'Ville' }),
  country: text(table.country, { required: true, label: 'Pays' }),
});
