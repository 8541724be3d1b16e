// Every CSP_* variable (server/config/csp-sources.ts) as an app might set them: avatars and a
// video from other hosts, an API and its WebSocket, Google's web fonts, Stripe's script and its
// frames, and one inline script's hash; and the sources they add to each directive.

export const CSP_EXAMPLE_ENV = {
  CSP_SCRIPT_SRC: "https://js.stripe.com 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=' 'wasm-unsafe-eval'",
  CSP_STYLE_SRC: 'https://fonts.googleapis.com',
  CSP_IMG_SRC: "https://avatars.githubusercontent.com *.gravatar.com blob: 'self'",
  CSP_CONNECT_SRC: 'https://api.example.com wss://live.example.com:8443',
  CSP_FONT_SRC: 'https://fonts.gstatic.com',
  CSP_FRAME_SRC: 'https://js.stripe.com https://www.youtube-nocookie.com/embed/',
  CSP_MEDIA_SRC: '  https://media.example.com/videos/  ',
};

export const CSP_EXAMPLE_SOURCES = {
  scriptSrc: ['https://js.stripe.com', "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='", "'wasm-unsafe-eval'"],
  styleSrc: ['https://fonts.googleapis.com'],
  imgSrc: ['https://avatars.githubusercontent.com', '*.gravatar.com', 'blob:', "'self'"],
  connectSrc: ['https://api.example.com', 'wss://live.example.com:8443'],
  fontSrc: ['https://fonts.gstatic.com'],
  frameSrc: ['https://js.stripe.com', 'https://www.youtube-nocookie.com/embed/'],
  mediaSrc: ['https://media.example.com/videos/'],
};
