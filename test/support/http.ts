/** A response body as JSON; tests assert its exact fields. */
export const readJson = async (response: Response): Promise<any> => response.json()
