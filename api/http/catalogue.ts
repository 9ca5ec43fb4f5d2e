/** The route catalogue is derived from the metadata: it lives in `api/meta/catalogue.ts`. */
export * from '../meta/catalogue.ts';
