import type { Kind } from '../db';
import type { FormDef } from './kit';
import { OFFENCE_FORM } from './OffenceForm';
import { TREE_FORM } from './TreeForm';
import { INSPECTION_FORM } from './InspectionForm';
import { FELLING_FORM } from './FellingForm';

/**
 * The field app's forms, in the tabs' order. A user sees those the server sent a create schema of
 * (`schemas` of GET /api/field/reference: the forms their actions let them create); the server
 * decides again on every create.
 */
export const FORMS: FormDef[] = [OFFENCE_FORM, INSPECTION_FORM, TREE_FORM, FELLING_FORM];
export const formOf = (kind: Kind): FormDef => FORMS.find((f) => f.kind === kind) ?? OFFENCE_FORM;
