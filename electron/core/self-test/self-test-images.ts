/**
 * The images `pictor self-test` runs through the image path: one small PNG, JPEG and WebP made
 * for it (a colour gradient over a checkerboard), carried as bytes so the test needs no file and
 * no network. Each has its own size, so an engine that answers for the wrong image is caught.
 */
import type { ImageHeaderInfo } from '../../ports/image-engine';

/** One embedded image and what its header says. */
export interface SelfTestImage {
  readonly bytes: Uint8Array;
  readonly header: ImageHeaderInfo;
}

function header(format: ImageHeaderInfo['format'], width: number, height: number): ImageHeaderInfo {
  return { format, width, height, orientation: 1, orientedWidth: width, orientedHeight: height };
}

const PNG_40X24 =
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAYCAIAAAAH5iiXAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAHa0lEQVRIxw3Soa6CAACG' +
  'UZqB2RzBRvIPzORGMDmKiWZgMzmKiWZgNkegkSzM5EawkSzMZPg2k6OYaAZmcwQb9z7BKccwDA0MDQ2NDI0NbIOJwdRgZmhu' +
  'aGFoacg3WBmsDTYGW0ORoZ2hvaGDQWqQGRwNTobOhi6GSkNXg5vB3eBh8DT0MtQYehv6GHwNfga9gWGYGpgamhqZGpvYJhOT' +
  'qcnM1NzUwtTSlG+yMlmbbEy2piJTO1N7UweT1CQzOZqcTJ1NXUyVpq4mN5O7ycPkaeplqjH1NvUx+Zr8THrzH7Y0sDS0NLI0' +
  'trAtJhZTi5mluaWFpaUl32JlsbbYWGwtRZZ2lvaWDhapRWZxtDhZOlu6WCotXS1uFneLh8XT0stSY+lt6WPxtfhZ9NY/bGtg' +
  'a2hrZGtsY9tMbKY2M1tzWwtbS1u+zcpmbbOx2dqKbO1s7W0dbFKbzOZoc7J1tnWxVdq62txs7jYPm6etl63G1tvWx+Zr87Pp' +
  '7X/YYeAwdBg5jB3ZjiaOpo5mDnOHhcPSwXe0crR2tHG0dYgcdg57h4Oj1FHm6Ojo5HB2uDiUDldHN0d3Rw9HT4eXQ+Pwdvg4' +
  '+jr6OeodGYbLwGXoMnIZu7JdTVxNXc1c5i4Ll6WL72rlau1q42rrErnsXPYuB1epq8zV0dXJ5exycSldrq5uru6uHq6eLi+X' +
  'xuXt8nH1dfVz1bv/sMfAY+gx8hh7sj1NPE09zTzmHguPpYfvaeVp7WnjaesReew89h4HT6mnzNPR08nj7HHxKD2unm6e7p4e' +
  'np4eL4/G4+3x8fT19PPUe/+wz8Bn6DPyGfuyfU18TX3NfOY+C5+lj+9r5Wvta+Nr6xP57Hz2Pgdfqa/M19HXyefsc/Epfa6+' +
  'br7uvh6+nj4vn8bn7fPx9fX189X7/3CgQaBhoFGgcYAdMAmYBswCzQMtAi0D+QGrgHXAJmAbKAq0C7QPdAhIA7KAY8Ap0DnQ' +
  'JVAZ6BpwC7gHPAKegV6BmkDvQJ+Ab8AvoA/+c4UahBqGGoUah9ghk5BpyCzUPNQi1DKUH7IKWYdsQraholC7UPtQh5A0JAs5' +
  'hpxCnUNdQpWhriG3kHvII+QZ6hWqCfUO9Qn5hvxC+vAfjjSINIw0ijSOsCMmEdOIWaR5pEWkZSQ/YhWxjthEbCNFkXaR9pEO' +
  'EWlEFnGMOEU6R7pEKiNdI24R94hHxDPSK1IT6R3pE/GN+EX00T8caxBrGGsUaxxjx0xipjGzWPNYi1jLWH7MKmYds4nZxopi' +
  '7WLtYx1i0pgs5hhzinWOdYlVxrrG3GLuMY+YZ6xXrCbWO9Yn5hvzi+njfzhhkDBMGCWME9mJJommiWYJ84RFwjLBT7RKtE60' +
  'SbRNiBJ2CfuEQ6I0UZbomOiUcE64JJQJ10S3RPdEj0TPhFdCk/BO+CT6Jvol6pP/XBmDjGHGKGOcyc40yTTNNMuYZywylhl+' +
  'plWmdaZNpm1GlLHL2GccMqWZskzHTKeMc8Ylo8y4Zrplumd6ZHpmvDKajHfGJ9M30y9Tn/3DOYOcYc4oZ5zLzjXJNc01y5nn' +
  'LHKWOX6uVa51rk2ubU6Us8vZ5xxypbmyXMdcp5xzziWnzLnmuuW653rkeua8cpqcd84n1zfXL1ef/8MFg4JhwahgXMguNCk0' +
  'LTQrmBcsCpYFfqFVoXWhTaFtQVSwK9gXHAqlhbJCx0KngnPBpaAsuBa6FboXehR6FrwKmoJ3wafQt9CvUF/8w6UGpYalRqXG' +
  'JXbJpGRaMis1L7UotSzll6xK1iWbkm2pqNSu1L7UoSQtyUqOJadS51KXUmWpa8mt5F7yKHmWepVqSr1LfUq+Jb+SvvzPVWlQ' +
  'aVhpVGlcYVdMKqYVs0rzSotKy0p+xapiXbGp2FaKKu0q7SsdKtKKrOJYcap0rnSpVFa6Vtwq7hWPimelV6Wm0rvSp+Jb8avo' +
  'q38YDdAQjdAYbJjAFGZojhZoiXxYwRo2sEUR2qE9OkAKGRzhhM7ogkp0hRvc4QFP9EINeqMPfOEHPf9wrUGtYa1RrXGNXTOp' +
  'mdbMas1rLWota/k1q5p1zaZmWyuqtau1r3WoSWuymmPNqda51qVWWetac6u51zxqnrVetZpa71qfmm/Nr6av/+GGQcOwYdQw' +
  'bmQ3mjSaNpo1zBsWDcsGv9Gq0brRptG2IWrYNewbDo3SRlmjY6NTw7nh0lA2XBvdGt0bPRo9G14NTcO74dPo2+jXqG/+c7UM' +
  'WoYto5ZxK7vVpNW01axl3rJoWbb4rVat1q02rbYtUcuuZd9yaJW2ylodW51azi2XlrLl2urW6t7q0erZ8mppWt4tn1bfVr9W' +
  'ffsPdww6hh2jjnEnu9Ok07TTrGPesehYdvidVp3WnTadth1Rx65j33HolHbKOh07nTrOHZeOsuPa6dbp3unR6dnx6mg63h2f' +
  'Tt9Ov0599w/3DHqGPaOecS+716TXtNesZ96z6Fn2+L1Wvda9Nr22PVHPrmffc+iV9sp6HXudes49l56y59rr1uve69Hr2fPq' +
  'aXrePZ9e316/Xn2vP1rbfoyBqramAAAAAElFTkSuQmCC';

const JPEG_36X28 =
  '/9j/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/' +
  '2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAAR' +
  'CAAcACQDASIAAhEBAxEB/8QAGAABAQEBAQAAAAAAAAAAAAAABQQABgf/xAAiEAAABQQCAwEAAAAAAAAAAAAAAwQSFAIiQYEh' +
  'UQUyoTH/xAAXAQADAQAAAAAAAAAAAAAAAAAEBQYH/8QAKxEAAAQEAQwDAAAAAAAAAAAAAAQREgECMUEDExUhImFicoGhorLh' +
  'MlNk/9oADAMBAAIRAxEAPwDzklDGw52hcSgjYc7QWJQxsOdoXEoY2HO0G2IaZut5sXyd0ApM6t/YJJQxsOdoXEoI2HO0FiUM' +
  'bDnaFpKGNhztBfiGmbrebF8ndBXkzqpp9ginw9vt8GHR0+Ht9vgwET8/eKCB/R8gaShjYc7QuJQxsOdoIICaLuOhcgJou46A' +
  'kDEZsmzVcrbtSvE7bSwwAoamuDyUMbDnaFxKGNhztBBATRdx0LkBNF3HQXwMRmybNVytu1K8TttLCvKGprg2nw9vt8GC1JND' +
  'fwYJM4Fvp7oijgZxEqP/2Q==';

const WEBP_32X20 =
  'UklGRugAAABXRUJQVlA4INwAAAAQCACdASogABQAPrVOoUs/pCMhsBgIA/AWiWwAnTKEfjeO8arri2GcCaAfYB2gNsBz//R/' +
  '+ir/gN5A6v+iABAhDoYUZZrHeguAAP75KlTFwEbBtD6U023YuTZD0dsj/WTY/HI2Dx+OM7/H44+H+Pxyh2p0MDVrGZ9ZFEU5' +
  '43Uy/0O/69P6XrvcwA58rmAKHNcwBb9m5gC+kIJl7Bns78bpens8Pbsl5srPQq8mJFSu/nf29zN6lCgmYsBnliMfbNbZvVKY' +
  'naXo8RdArODaUNoUGRxWuaC9SgKVEYAA';

/** The three images, in the order the self-test runs them. */
export function selfTestImages(): readonly SelfTestImage[] {
  return [
    { bytes: Buffer.from(PNG_40X24, 'base64'), header: header('png', 40, 24) },
    { bytes: Buffer.from(JPEG_36X28, 'base64'), header: header('jpeg', 36, 28) },
    { bytes: Buffer.from(WEBP_32X20, 'base64'), header: header('webp', 32, 20) },
  ];
}
