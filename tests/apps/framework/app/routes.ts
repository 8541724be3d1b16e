import { type RouteConfig, index, route } from '@react-router/dev/routes';

// Route ids come from the files (`routes/contact`), as in React Router's tutorial.
export default [
  index('routes/home.tsx'),
  route('contacts/:contactId', 'routes/contact.tsx'),
  route('about', 'routes/about.tsx'),
  route('boom', 'routes/boom.tsx'),
  route('api/contacts', 'routes/api.contacts.ts'),
] satisfies RouteConfig;
