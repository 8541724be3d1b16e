// Prerendered at build (react-router.config.ts), as the tutorial's about page is.
export default function About() {
  return (
    <main id="about">
      <h1>About</h1>
      <p>A framework-mode app on the host.</p>
    </main>
  );
}
