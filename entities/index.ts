/** Every entity, in one list for the data source. */
import { ApiToken } from './ApiToken';
import { ChangeRequest } from './ChangeRequest';
import { ChangeRequestRequestedReviewer } from './ChangeRequestRequestedReviewer';
import { ChangeRequestReview } from './ChangeRequestReview';
import { Collection } from './Collection';
import { Comment } from './Comment';
import { CommentReaction } from './CommentReaction';
import { CommentReply } from './CommentReply';
import { ContentGrant } from './ContentGrant';
import { ContentObject } from './ContentObject';
import { IdempotencyKey } from './IdempotencyKey';
import { ImportRun } from './ImportRun';
import { Integration } from './Integration';
import { IntegrationEvent } from './IntegrationEvent';
import { IntegrationInstallation } from './IntegrationInstallation';
import { IntegrationSiteInstallation } from './IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from './IntegrationSpaceInstallation';
import { InviteToken } from './InviteToken';
import { LinkInvite } from './LinkInvite';
import { MailMessage } from './MailMessage';
import { Member } from './Member';
import { OpenAPISpec } from './OpenAPISpec';
import { OpenAPISpecVersion } from './OpenAPISpecVersion';
import { Organization } from './Organization';
import { PdfExport } from './PdfExport';
import { RateLimitCounter } from './RateLimitCounter';
import { Revision } from './Revision';
import { SamlProvider } from './SamlProvider';
import { SearchPage } from './SearchPage';
import { SearchSection } from './SearchSection';
import { Site } from './Site';
import { SitePublishingAuth } from './SitePublishingAuth';
import { SiteSection } from './SiteSection';
import { SiteSectionGroup } from './SiteSectionGroup';
import { SiteShareLink } from './SiteShareLink';
import { SiteSpace } from './SiteSpace';
import { Space } from './Space';
import { SpaceLink } from './SpaceLink';
import { Team } from './Team';
import { TeamMember } from './TeamMember';
import { Translation } from './Translation';
import { TranslationPage } from './TranslationPage';
import { User } from './User';

export const entities = [
  User,
  ApiToken,
  RateLimitCounter,
  IdempotencyKey,
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
  ChangeRequestReview,
  ChangeRequestRequestedReviewer,
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
  InviteToken,
  MailMessage,
];

export {
  ApiToken,
  ChangeRequest,
  ChangeRequestRequestedReviewer,
  ChangeRequestReview,
  Collection,
  Comment,
  CommentReaction,
  CommentReply,
  ContentGrant,
  ContentObject,
  IdempotencyKey,
  ImportRun,
  Integration,
  IntegrationEvent,
  IntegrationInstallation,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  InviteToken,
  LinkInvite,
  MailMessage,
  Member,
  OpenAPISpec,
  OpenAPISpecVersion,
  Organization,
  PdfExport,
  RateLimitCounter,
  Revision,
  SamlProvider,
  SearchPage,
  SearchSection,
  Site,
  SitePublishingAuth,
  SiteSection,
  SiteSectionGroup,
  SiteShareLink,
  SiteSpace,
  Space,
  SpaceLink,
  Team,
  TeamMember,
  Translation,
  TranslationPage,
  User,
};
