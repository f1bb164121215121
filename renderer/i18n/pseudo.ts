/** Kept for older imports: the pseudo-locale lives in shared/i18n/pseudo.ts (main uses it too). */
export { pseudoCatalogue, pseudoMessage, pseudoText } from '../../shared/i18n/pseudo';
