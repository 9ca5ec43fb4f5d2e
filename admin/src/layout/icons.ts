import type { SvgIconComponent } from '@mui/icons-material';
import AccountBalance from '@mui/icons-material/AccountBalance';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Assessment from '@mui/icons-material/Assessment';
import Article from '@mui/icons-material/Article';
import Badge from '@mui/icons-material/Badge';
import BarChart from '@mui/icons-material/BarChart';
import Category from '@mui/icons-material/Category';
import Description from '@mui/icons-material/Description';
import Folder from '@mui/icons-material/Folder';
import Forest from '@mui/icons-material/Forest';
import Gavel from '@mui/icons-material/Gavel';
import Group from '@mui/icons-material/Group';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import ListAlt from '@mui/icons-material/ListAlt';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import Map from '@mui/icons-material/Map';
import MenuBook from '@mui/icons-material/MenuBook';
import Notifications from '@mui/icons-material/Notifications';
import Park from '@mui/icons-material/Park';
import Payments from '@mui/icons-material/Payments';
import People from '@mui/icons-material/People';
import Person from '@mui/icons-material/Person';
import Place from '@mui/icons-material/Place';
import Policy from '@mui/icons-material/Policy';
import Receipt from '@mui/icons-material/Receipt';
import Security from '@mui/icons-material/Security';
import Settings from '@mui/icons-material/Settings';
import Summarize from '@mui/icons-material/Summarize';
import TableChart from '@mui/icons-material/TableChart';
import Business from '@mui/icons-material/Business';
import Dashboard from '@mui/icons-material/Dashboard';
import ChevronRight from '@mui/icons-material/ChevronRight';

/**
 * The Material icons the menu can show, by the name the metadata gives (menu.json `icon`). A
 * fixed table keeps the bundle small (the whole icon set is thousands of modules); an unknown name
 * shows the default. Add a name here before using it in the metadata.
 */
export const ICONS: Record<string, SvgIconComponent> = {
  AccountBalance,
  AdminPanelSettings,
  Assessment,
  Article,
  Badge,
  BarChart,
  Business,
  Category,
  Dashboard,
  Description,
  Folder,
  Forest,
  Gavel,
  Group,
  LibraryBooks,
  ListAlt,
  ManageAccounts,
  Map,
  MenuBook,
  Notifications,
  Park,
  Payments,
  People,
  Person,
  Place,
  Policy,
  Receipt,
  Security,
  Settings,
  Summarize,
  TableChart,
};

export const DEFAULT_SECTION_ICON = Folder;
export const DEFAULT_ITEM_ICON = ChevronRight;

export function iconFor(name: string | undefined, fallback: SvgIconComponent): SvgIconComponent {
  return (name && ICONS[name]) || fallback;
}
