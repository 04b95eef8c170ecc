/** The `urls` builders live in domain/ (the integration environment built by activities needs them too). */
export { Urls } from '../../domain/urls';
