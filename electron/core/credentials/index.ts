/**
 * The credentials module's face (electron/core/credentials/): its doors are the exports below, the
 * only names other modules and the fronts import from it. Which key goes to which service address.
 */
export { bindLegacyKey } from './legacy-key-binding';
export {
  IMPORTED_LOCAL_SENTENCE,
  credentialsForRecord,
  importedLocalMessage,
  isImportedLocal,
} from './record-credentials';
export { serviceAddress, servicesAt, sharedAddress } from './service-addresses';
