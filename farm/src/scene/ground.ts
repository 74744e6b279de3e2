/**
 * The floor under the build: a shadow catcher (only the key light's shadow shows) and a
 * soft contact shadow sized to the case footprint, our cheap stand-in for ambient occlusion
 * where the case meets the floor. Both turn with the build (they are a turntable).
 */
import * as THREE from 'three';
import { contactShadowTexture } from '../util/textures.js';

/** `footprint`: case width and depth in metres; `y`: the floor height in metres. */
export function buildGround(
  footprint: { width: number; depth: number },
  y: number,
  radius: number,
  shadowOpacity: number,
  receiveShadow: boolean,
): THREE.Group {
  const g = new THREE.Group();
  g.name = 'ground';
  if (receiveShadow) {
    const catcher = new THREE.Mesh(
      new THREE.CircleGeometry(radius * 3, 48),
      new THREE.ShadowMaterial({ opacity: shadowOpacity, depthWrite: false }),
    );
    catcher.rotation.x = -Math.PI / 2;
    catcher.position.y = y + 0.0005;
    catcher.receiveShadow = true;
    catcher.renderOrder = -2;
    g.add(catcher);
  }
  const contact = new THREE.Mesh(
    new THREE.PlaneGeometry(footprint.width * 1.9, footprint.depth * 1.6),
    new THREE.MeshBasicMaterial({
      map: contactShadowTexture(),
      transparent: true,
      depthWrite: false,
      opacity: 0.8,
      color: '#000000',
    }),
  );
  contact.rotation.x = -Math.PI / 2;
  contact.position.y = y + 0.001;
  contact.renderOrder = -1;
  g.add(contact);
  return g;
}
