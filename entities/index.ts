/** Every entity, in one list for the data source. */
import { ApiToken } from './ApiToken';
import { ChangeRequest } from './ChangeRequest';
import { Comment } from './Comment';
import { CommentReaction } from './CommentReaction';
import { CommentReply } from './CommentReply';
import { ContentObject } from './ContentObject';
import { Revision } from './Revision';
import { SearchPage } from './SearchPage';
import { SearchSection } from './SearchSection';
import { SpaceLink } from './SpaceLink';
import { Collection } from './Collection';
import { ContentGrant } from './ContentGrant';
import { ImportRun } from './ImportRun';
import { Integration } from './Integration';
import { IntegrationEvent } from './IntegrationEvent';
import { IntegrationInstallation } from './IntegrationInstallation';
import { IntegrationSiteInstallation } from './IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from './IntegrationSpaceInstallation';
import { LinkInvite } from './LinkInvite';
import { Member } from './Member';
import { OpenAPISpec } from './OpenAPISpec';
import { OpenAPISpecVersion } from './OpenAPISpecVersion';
import { Organization } from './Organization';
import { PdfExport } from './PdfExport';
import { RateLimitCounter } from './RateLimitCounter';
import { SamlProvider } from './SamlProvider';
import { Site } from './Site';
import { SitePublishingAuth } from './SitePublishingAuth';
import { SiteSection } from './SiteSection';
import { SiteShareLink } from './SiteShareLink';
import { SiteSectionGroup } from './SiteSectionGroup';
import { SiteSpace } from './SiteSpace';
import { Space } from './Space';
import { Team } from './Team';
import { TeamMember } from './TeamMember';
import { Translation } from './Translation';
import { TranslationPage } from './TranslationPage';
import { User } from './User';

export const entities = [
  User,
  ApiToken,
  RateLimitCounter,
  Organization,
  Member,
  Team,
  TeamMember,
  SamlProvider,
  LinkInvite,
  Collection,
  Space,
  ContentGrant,
  ContentObject,
  Revision,
  ChangeRequest,
  SearchPage,
  SearchSection,
  SpaceLink,
  Comment,
  CommentReply,
  CommentReaction,
  OpenAPISpec,
  OpenAPISpecVersion,
  PdfExport,
  ImportRun,
  Site,
  SiteSectionGroup,
  SiteSection,
  SiteSpace,
  SiteShareLink,
  SitePublishingAuth,
  Translation,
  TranslationPage,
  Integration,
  IntegrationInstallation,
  IntegrationSpaceInstallation,
  IntegrationSiteInstallation,
  IntegrationEvent,
];

export {
  ApiToken,
  ChangeRequest,
  Comment,
  CommentReaction,
  CommentReply,
  ContentObject,
  Revision,
  SearchPage,
  SearchSection,
  SpaceLink,
  Collection,
  ContentGrant,
  ImportRun,
  Integration,
  IntegrationEvent,
  IntegrationInstallation,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  LinkInvite,
  Member,
  OpenAPISpec,
  OpenAPISpecVersion,
  Organization,
  PdfExport,
  RateLimitCounter,
  SamlProvider,
  Site,
  SitePublishingAuth,
  SiteSection,
  SiteSectionGroup,
  SiteShareLink,
  SiteSpace,
  Space,
  Team,
  TeamMember,
  Translation,
  TranslationPage,
  User,
};
