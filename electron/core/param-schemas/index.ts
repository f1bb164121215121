/**
 * The param-schemas module's face (electron/core/param-schemas/): the models' options Pictor did
 * not ship, fetched from a service or given in a file, kept in one bounded file in the data folder
 * and used over the shipped ones once read (`openParamSchemaBook`).
 */
export {
  openModelOptions,
  openParamSchemaBook,
  type ModelOptions,
  type ParamSchemaBook,
} from './param-schema-book';
