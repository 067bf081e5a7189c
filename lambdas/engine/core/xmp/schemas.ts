/**
 * The predefined XMP schemas PDF/A accepts without an extension schema, with
 * each property's value type, as the XMP Specification lists them: the
 * January 2004 edition for PDF/A-1 (ISO 19005-1, 6.7.2) and the September 2005
 * edition for PDF/A-2 and PDF/A-3 (ISO 19005-2, 6.6.2.3.1), plus the schemas
 * the PDF/A parts define themselves (identification, extension containers).
 *
 * Value types are written as XMP names: simple types (`Text`, `Integer`,
 * `Date`, …), `bag X` / `seq X` / `alt X`, `LangAlt`, or a structure type named
 * in STRUCTS (its fields live in the structure's own namespace).
 */

export const NS = {
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  xmpRights: 'http://ns.adobe.com/xap/1.0/rights/',
  xmpMM: 'http://ns.adobe.com/xap/1.0/mm/',
  xmpBJ: 'http://ns.adobe.com/xap/1.0/bj/',
  xmpTPg: 'http://ns.adobe.com/xap/1.0/t/pg/',
  xmpDM: 'http://ns.adobe.com/xmp/1.0/DynamicMedia/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  photoshop: 'http://ns.adobe.com/photoshop/1.0/',
  crs: 'http://ns.adobe.com/camera-raw-settings/1.0/',
  tiff: 'http://ns.adobe.com/tiff/1.0/',
  exif: 'http://ns.adobe.com/exif/1.0/',
  aux: 'http://ns.adobe.com/exif/1.0/aux/',
  stDim: 'http://ns.adobe.com/xap/1.0/sType/Dimensions#',
  xmpGImg: 'http://ns.adobe.com/xap/1.0/g/img/',
  stEvt: 'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#',
  stRef: 'http://ns.adobe.com/xap/1.0/sType/ResourceRef#',
  stVer: 'http://ns.adobe.com/xap/1.0/sType/Version#',
  stJob: 'http://ns.adobe.com/xap/1.0/sType/Job#',
  stFnt: 'http://ns.adobe.com/xap/1.0/sType/Font#',
  xmpG: 'http://ns.adobe.com/xap/1.0/g/',
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  pdfuaid: 'http://www.aiim.org/pdfua/ns/id/',
  pdfxid: 'http://www.npes.org/pdfx/ns/id/',
  pdfx: 'http://ns.adobe.com/pdfx/1.3/',
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
  pdfaType: 'http://www.aiim.org/pdfa/ns/type#',
  pdfaField: 'http://www.aiim.org/pdfa/ns/field#',
} as const;

export type Edition = '2004' | '2005';

export interface StructType {
  ns: string;
  fields: Readonly<Record<string, string>>;
}

/** A schema's properties and their value types. */
type Schema = Readonly<Record<string, string>>;

const DC: Schema = {
  contributor: 'bag ProperName',
  coverage: 'Text',
  creator: 'seq ProperName',
  date: 'seq Date',
  description: 'LangAlt',
  format: 'MIMEType',
  identifier: 'Text',
  language: 'bag Locale',
  publisher: 'bag ProperName',
  relation: 'bag Text',
  rights: 'LangAlt',
  source: 'Text',
  subject: 'bag Text',
  title: 'LangAlt',
  type: 'bag Text',
};

const XMP_2004: Schema = {
  Advisory: 'bag XPath',
  BaseURL: 'URL',
  CreateDate: 'Date',
  CreatorTool: 'AgentName',
  Identifier: 'bag Text',
  MetadataDate: 'Date',
  ModifyDate: 'Date',
  Nickname: 'Text',
  Thumbnails: 'alt Thumbnail',
};

const XMP_RIGHTS: Schema = { Certificate: 'URL', Marked: 'Boolean', Owner: 'bag ProperName', UsageTerms: 'LangAlt', WebStatement: 'URL' };

const XMP_MM_2004: Schema = {
  DerivedFrom: 'ResourceRef',
  DocumentID: 'URI',
  History: 'seq ResourceEvent',
  InstanceID: 'URI',
  ManagedFrom: 'ResourceRef',
  Manager: 'AgentName',
  ManageTo: 'URI',
  ManageUI: 'URI',
  ManagerVariant: 'Text',
  RenditionClass: 'RenditionClass',
  RenditionParams: 'Text',
  VersionID: 'Text',
  Versions: 'seq Version',
  LastURL: 'URL',
  RenditionOf: 'ResourceRef',
  SaveID: 'Integer',
};

const XMP_BJ: Schema = { JobRef: 'bag Job' };
const XMP_TPG_2004: Schema = { MaxPageSize: 'Dimensions', NPages: 'Integer' };
const PDF_2004: Schema = { Keywords: 'Text', PDFVersion: 'Text', Producer: 'AgentName' };

const PHOTOSHOP_2004: Schema = {
  AuthorsPosition: 'Text',
  CaptionWriter: 'ProperName',
  Category: 'Text',
  City: 'Text',
  Country: 'Text',
  Credit: 'Text',
  DateCreated: 'Date',
  Headline: 'Text',
  Instructions: 'Text',
  Source: 'Text',
  State: 'Text',
  // The 2004 specification lists SupplementalCategories as Text; 2005 corrected it to a Bag.
  SupplementalCategories: 'Text',
  TransmissionReference: 'Text',
  Urgency: 'Integer',
};

const TIFF: Schema = {
  ImageWidth: 'Integer',
  ImageLength: 'Integer',
  BitsPerSample: 'seq Integer',
  Compression: 'Integer',
  PhotometricInterpretation: 'Integer',
  Orientation: 'Integer',
  SamplesPerPixel: 'Integer',
  PlanarConfiguration: 'Integer',
  YCbCrSubSampling: 'seq Integer',
  YCbCrPositioning: 'Integer',
  XResolution: 'Rational',
  YResolution: 'Rational',
  ResolutionUnit: 'Integer',
  TransferFunction: 'seq Integer',
  WhitePoint: 'seq Rational',
  PrimaryChromaticities: 'seq Rational',
  YCbCrCoefficients: 'seq Rational',
  ReferenceBlackWhite: 'seq Rational',
  DateTime: 'Date',
  ImageDescription: 'LangAlt',
  Make: 'ProperName',
  Model: 'ProperName',
  Software: 'AgentName',
  Artist: 'ProperName',
  Copyright: 'LangAlt',
};

const EXIF: Schema = {
  ExifVersion: 'Text',
  FlashpixVersion: 'Text',
  ColorSpace: 'Integer',
  ComponentsConfiguration: 'seq Integer',
  CompressedBitsPerPixel: 'Rational',
  PixelXDimension: 'Integer',
  PixelYDimension: 'Integer',
  MakerNote: 'Text',
  UserComment: 'LangAlt',
  RelatedSoundFile: 'Text',
  DateTimeOriginal: 'Date',
  DateTimeDigitized: 'Date',
  ExposureTime: 'Rational',
  FNumber: 'Rational',
  ExposureProgram: 'Integer',
  SpectralSensitivity: 'Text',
  ISOSpeedRatings: 'seq Integer',
  OECF: 'OECF/SFR',
  ShutterSpeedValue: 'Rational',
  ApertureValue: 'Rational',
  BrightnessValue: 'Rational',
  ExposureBiasValue: 'Rational',
  MaxApertureValue: 'Rational',
  SubjectDistance: 'Rational',
  MeteringMode: 'Integer',
  LightSource: 'Integer',
  Flash: 'Flash',
  FocalLength: 'Rational',
  SubjectArea: 'seq Integer',
  FlashEnergy: 'Rational',
  SpatialFrequencyResponse: 'OECF/SFR',
  FocalPlaneXResolution: 'Rational',
  FocalPlaneYResolution: 'Rational',
  FocalPlaneResolutionUnit: 'Integer',
  SubjectLocation: 'seq Integer',
  ExposureIndex: 'Rational',
  SensingMethod: 'Integer',
  FileSource: 'Integer',
  SceneType: 'Integer',
  CFAPattern: 'CFAPattern',
  CustomRendered: 'Integer',
  ExposureMode: 'Integer',
  WhiteBalance: 'Integer',
  DigitalZoomRatio: 'Rational',
  FocalLengthIn35mmFilm: 'Integer',
  SceneCaptureType: 'Integer',
  GainControl: 'Integer',
  Contrast: 'Integer',
  Saturation: 'Integer',
  Sharpness: 'Integer',
  DeviceSettingDescription: 'DeviceSettings',
  SubjectDistanceRange: 'Integer',
  ImageUniqueID: 'Text',
  GPSVersionID: 'Text',
  GPSLatitude: 'GPSCoordinate',
  GPSLongitude: 'GPSCoordinate',
  GPSAltitudeRef: 'Integer',
  GPSAltitude: 'Rational',
  GPSTimeStamp: 'Date',
  GPSSatellites: 'Text',
  GPSStatus: 'Text',
  GPSMeasureMode: 'Integer',
  GPSDOP: 'Rational',
  GPSSpeedRef: 'Text',
  GPSSpeed: 'Rational',
  GPSTrackRef: 'Text',
  GPSTrack: 'Rational',
  GPSImgDirectionRef: 'Text',
  GPSImgDirection: 'Rational',
  GPSMapDatum: 'Text',
  GPSDestLatitude: 'GPSCoordinate',
  GPSDestLongitude: 'GPSCoordinate',
  GPSDestBearingRef: 'Text',
  GPSDestBearing: 'Rational',
  GPSDestDistanceRef: 'Text',
  GPSDestDistance: 'Rational',
  GPSProcessingMethod: 'Text',
  GPSAreaInformation: 'Text',
  GPSDifferential: 'Integer',
};

const CRS: Schema = {
  AutoBrightness: 'Boolean',
  AutoContrast: 'Boolean',
  AutoExposure: 'Boolean',
  AutoShadows: 'Boolean',
  BlueHue: 'Integer',
  BlueSaturation: 'Integer',
  Brightness: 'Integer',
  CameraProfile: 'Text',
  ChromaticAberrationB: 'Integer',
  ChromaticAberrationR: 'Integer',
  ColorNoiseReduction: 'Integer',
  Contrast: 'Integer',
  CropTop: 'Real',
  CropLeft: 'Real',
  CropBottom: 'Real',
  CropRight: 'Real',
  CropAngle: 'Real',
  CropWidth: 'Real',
  CropHeight: 'Real',
  CropUnits: 'Integer',
  Exposure: 'Real',
  GreenHue: 'Integer',
  GreenSaturation: 'Integer',
  HasCrop: 'Boolean',
  HasSettings: 'Boolean',
  LuminanceSmoothing: 'Integer',
  RawFileName: 'Text',
  RedHue: 'Integer',
  RedSaturation: 'Integer',
  Saturation: 'Integer',
  Shadows: 'Integer',
  ShadowTint: 'Integer',
  Sharpness: 'Integer',
  Temperature: 'Integer',
  Tint: 'Integer',
  ToneCurve: 'seq Text',
  ToneCurveName: 'Text',
  Version: 'Text',
  VignetteAmount: 'Integer',
  VignetteMidpoint: 'Integer',
  WhiteBalance: 'Text',
};

const XMP_DM: Schema = {
  projectRef: 'ProjectLink',
  videoFrameRate: 'Text',
  videoFrameSize: 'Dimensions',
  videoPixelAspectRatio: 'Rational',
  videoPixelDepth: 'Text',
  videoColorSpace: 'Text',
  videoAlphaMode: 'Text',
  videoAlphaPremultipleColor: 'Colorant',
  videoAlphaUnityIsTransparent: 'Boolean',
  videoCompressor: 'Text',
  videoFieldOrder: 'Text',
  pullDown: 'Text',
  audioSampleRate: 'Integer',
  audioSampleType: 'Text',
  audioChannelType: 'Text',
  audioCompressor: 'Text',
  speakerPlacement: 'Text',
  fileDataRate: 'Rational',
  tapeName: 'Text',
  altTapeName: 'Text',
  startTimecode: 'Timecode',
  altTimecode: 'Timecode',
  duration: 'Time',
  scene: 'Text',
  shotName: 'Text',
  shotDate: 'Date',
  shotLocation: 'Text',
  logComment: 'Text',
  markers: 'seq Marker',
  contributedMedia: 'bag Media',
  absPeakAudioFilePath: 'URI',
  relativePeakAudioFilePath: 'URI',
  videoModDate: 'Date',
  audioModDate: 'Date',
  metadataModDate: 'Date',
  artist: 'Text',
  album: 'Text',
  trackNumber: 'Integer',
  genre: 'Text',
  copyright: 'Text',
  releaseDate: 'Date',
  composer: 'Text',
  engineer: 'Text',
  tempo: 'Real',
  instrument: 'Text',
  introTime: 'Time',
  outCue: 'Time',
  relativeTimestamp: 'Time',
  loop: 'Boolean',
  numberOfBeats: 'Real',
  key: 'Text',
  stretchMode: 'Text',
  timeScaleParams: 'TimeScaleStretch',
  resampleParams: 'ResampleStretch',
  beatSpliceParams: 'BeatSpliceStretch',
  timeSignature: 'Text',
  scaleType: 'Text',
};

/** Schemas the PDF/A parts define (identification and extension schema containers). */
const PDFA_ID: Schema = { part: 'Integer', conformance: 'Text', amd: 'Text', corr: 'Text', rev: 'Integer' };
const PDFA_EXTENSION: Schema = { schemas: 'bag Schema' };

const EDITION_2004: Readonly<Record<string, Schema>> = {
  [NS.dc]: DC,
  [NS.xmp]: XMP_2004,
  [NS.xmpRights]: XMP_RIGHTS,
  [NS.xmpMM]: XMP_MM_2004,
  [NS.xmpBJ]: XMP_BJ,
  [NS.xmpTPg]: XMP_TPG_2004,
  [NS.pdf]: PDF_2004,
  [NS.photoshop]: PHOTOSHOP_2004,
  [NS.tiff]: TIFF,
  [NS.exif]: EXIF,
  [NS.pdfaid]: PDFA_ID,
  // pdfuaid is not listed: ISO 14289 defines it after these editions, so PDF/A files describe it with an extension schema.
  [NS.pdfaExtension]: PDFA_EXTENSION,
};

const EDITION_2005: Readonly<Record<string, Schema>> = {
  ...EDITION_2004,
  [NS.xmp]: { ...XMP_2004, Label: 'Text', Rating: 'Real' },
  [NS.xmpTPg]: { ...XMP_TPG_2004, Fonts: 'bag Font', Colorants: 'seq Colorant', PlateNames: 'seq Text' },
  [NS.pdf]: { ...PDF_2004, Trapped: 'Boolean' },
  [NS.photoshop]: { ...PHOTOSHOP_2004, SupplementalCategories: 'bag Text', ColorMode: 'Integer', ICCProfile: 'Text', History: 'Text' },
  // XMP 2005 makes GPSMeasureMode the Text "2" or "3" (veraPDF's 2005 table agrees); 2004 had an Integer.
  [NS.exif]: { ...EXIF, GPSMeasureMode: 'Text', NativeDigest: 'Text' },
  [NS.tiff]: { ...TIFF, NativeDigest: 'Text' },
  [NS.xmpDM]: XMP_DM,
  [NS.crs]: CRS,
  [NS.aux]: { Lens: 'Text', SerialNumber: 'Text' },
};

const X = NS.xmpDM;
const TIME = { value: 'Integer', scale: 'Rational' };
const RESOURCE_EVENT_2004 = { action: 'Text', instanceID: 'URI', parameters: 'Text', softwareAgent: 'AgentName', when: 'Date' };
const RESOURCE_REF_2004 = {
  instanceID: 'URI',
  documentID: 'URI',
  versionID: 'Text',
  renditionClass: 'RenditionClass',
  renditionParams: 'Text',
  manager: 'AgentName',
  managerVariant: 'Text',
  manageTo: 'URI',
  manageUI: 'URI',
};

const STRUCTS_2004: Readonly<Record<string, StructType>> = {
  Dimensions: { ns: NS.stDim, fields: { w: 'Real', h: 'Real', unit: 'Text' } },
  Thumbnail: { ns: NS.xmpGImg, fields: { height: 'Integer', width: 'Integer', format: 'Text', image: 'Text' } },
  ResourceEvent: { ns: NS.stEvt, fields: RESOURCE_EVENT_2004 },
  ResourceRef: { ns: NS.stRef, fields: RESOURCE_REF_2004 },
  Version: { ns: NS.stVer, fields: { comments: 'Text', event: 'ResourceEvent', modifyDate: 'Date', modifier: 'ProperName', version: 'Text' } },
  Job: { ns: NS.stJob, fields: { name: 'Text', id: 'Text', url: 'URL' } },
  Flash: { ns: NS.exif, fields: { Fired: 'Boolean', Return: 'Integer', Mode: 'Integer', Function: 'Boolean', RedEyeMode: 'Boolean' } },
  'OECF/SFR': { ns: NS.exif, fields: { Columns: 'Integer', Rows: 'Integer', Names: 'seq Text', Values: 'seq Rational' } },
  CFAPattern: { ns: NS.exif, fields: { Columns: 'Integer', Rows: 'Integer', Values: 'seq Integer' } },
  DeviceSettings: { ns: NS.exif, fields: { Columns: 'Integer', Rows: 'Integer', Settings: 'seq Text' } },
};

const STRUCTS_2005: Readonly<Record<string, StructType>> = {
  ...STRUCTS_2004,
  ResourceEvent: { ns: NS.stEvt, fields: { ...RESOURCE_EVENT_2004, changed: 'Text' } },
  Font: {
    ns: NS.stFnt,
    fields: { fontName: 'Text', fontFamily: 'Text', fontFace: 'Text', fontType: 'Text', versionString: 'Text', composite: 'Boolean', fontFileName: 'Text', childFontFiles: 'seq Text' },
  },
  Colorant: {
    ns: NS.xmpG,
    fields: { swatchName: 'Text', mode: 'Text', type: 'Text', cyan: 'Real', magenta: 'Real', yellow: 'Real', black: 'Real', red: 'Integer', green: 'Integer', blue: 'Integer', L: 'Real', A: 'Integer', B: 'Integer' },
  },
  Time: { ns: X, fields: TIME },
  Timecode: { ns: X, fields: { timeValue: 'Text', timeFormat: 'Text' } },
  ProjectLink: { ns: X, fields: { type: 'Text', path: 'URI' } },
  // veraPDF types startTime and duration as "any" (XMP 2005 leaves them loosely typed), so a structure passes too.
  Marker: { ns: X, fields: { startTime: 'Any', duration: 'Any', comment: 'Text', name: 'Text', location: 'URI', target: 'Text', type: 'Text' } },
  Media: { ns: X, fields: { path: 'URI', track: 'Text', startTime: 'Time', duration: 'Time', managed: 'Boolean', webStatement: 'URI' } },
  BeatSpliceStretch: { ns: X, fields: { useFileBeatsMarker: 'Boolean', riseInDecibel: 'Real', riseInTimeDuration: 'Time' } },
  ResampleStretch: { ns: X, fields: { quality: 'Text' } },
  TimeScaleStretch: { ns: X, fields: { quality: 'Text', frameSize: 'Real', frameOverlappingPercentage: 'Real' } },
};

/** The value type of a predefined property, or undefined when the edition does not define it. */
export function predefinedType(edition: Edition, ns: string, name: string): string | undefined {
  const schema = (edition === '2004' ? EDITION_2004 : EDITION_2005)[ns];
  return schema && Object.hasOwn(schema, name) ? schema[name] : undefined;
}

/** True when the namespace is one of the edition's predefined schemas. */
export function isPredefinedNamespace(edition: Edition, ns: string): boolean {
  return Object.hasOwn(edition === '2004' ? EDITION_2004 : EDITION_2005, ns);
}

/** A predefined structure type by name; with anyCase, the name matches without regard to case. */
export function predefinedStruct(edition: Edition, type: string, anyCase = false): StructType | undefined {
  const table = edition === '2004' ? STRUCTS_2004 : STRUCTS_2005;
  if (Object.hasOwn(table, type)) return table[type];
  if (!anyCase) return undefined;
  const key = Object.keys(table).find((k) => k.toLowerCase() === type.toLowerCase());
  return key === undefined ? undefined : table[key];
}
